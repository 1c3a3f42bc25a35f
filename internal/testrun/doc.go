// Package testrun runs the test blocks of a *.test.jh file (docs/language.md#tests): each
// block in a fresh shell of its own (D15), prompt mocks (queue and
// dispatcher), symbol mocks, workflow runs with capture and allow_failure,
// and the expect* checks with their failure texts. It reports one Result per
// test; the transcript around the results (`testing …`, ▸/✓/✗, summaries) is
// the progress package's job, discovery and exit codes the CLI's.
package testrun
