// Package served is what `jaiph serve` and the backends that keep its runs
// share: a served run's public object, the request that starts one, and
// the Backend seam — where runs are recorded, run, followed and read. The
// service on one machine keeps them in its own process and files
// (internal/tools/serve); on a broker they live in JetStream and run on
// workers (internal/broker), so that any replica answers for any run.
package served
