package runtime

import "fmt"

// This file answers: did the system refuse the run something (no
// descriptors, a full disk), and how is that reported?

// fault records something the system refused (a program that could not
// start for lack of resources, an artifact that could not be written): the
// run fails even when the step's own status is ignored, as a background
// job's is. show also prints it on the run's stderr at once, for errors
// whose text has nowhere else to go.
func (rt *Runtime) fault(err error, show bool) {
	rt.faultMu.Lock()
	defer rt.faultMu.Unlock()
	if rt.faults++; rt.faults == 1 {
		rt.firstFault = err
	}
	if show {
		fmt.Fprintf(rt.opts.StrayStderr, "jaiph: %v\n", err)
	}
}

// faultErr summarises the run's faults (nil when there were none).
func (rt *Runtime) faultErr() error {
	rt.faultMu.Lock()
	defer rt.faultMu.Unlock()
	switch rt.faults {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("system error: %v", rt.firstFault)
	}
	return fmt.Errorf("%d system errors; the first: %v", rt.faults, rt.firstFault)
}
