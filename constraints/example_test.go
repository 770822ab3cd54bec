package constraints_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/sextantdev/sextant/constraints"
)

// A subscription wants one bundle of a package, newest first; the newest
// bundle needs an API that only a bundle conflicting with the subscription's
// other requirement provides, so the search settles for the older one.
func ExampleSolve() {
	var p constraints.Problem[string, string]
	p.Mandatory("subscription etcd", "sub-etcd")
	p.Dependency("channel alpha of etcd", "sub-etcd", "etcd.v0.9.4", "etcd.v0.9.2")
	p.AtMost("one bundle of etcd", 1, "etcd.v0.9.4", "etcd.v0.9.2")
	p.Dependency("etcd.v0.9.4 requires EtcdBackup", "etcd.v0.9.4", "backup.v1")
	p.Mandatory("installed legacy-backup", "legacy-backup.v0.1")
	p.Conflict("one provider of EtcdBackup", "backup.v1", "legacy-backup.v0.1")

	sol, err := constraints.Solve(context.Background(), &p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sol.Selected())
	// Output: [sub-etcd etcd.v0.9.2 legacy-backup.v0.1]
}

// The reasons of a minimal conflict core explain why there is no solution.
func ExampleUnsatError() {
	var p constraints.Problem[string, string]
	p.Mandatory("subscription a", "a.v1")
	p.Mandatory("subscription b", "b.v1")
	p.Dependency("a.v1 requires API Widget", "a.v1", "widget.v1", "widget.v2")
	p.Dependency("b.v1 requires package widget < 1.0", "b.v1", "widget.v0")
	p.AtMost("one bundle of widget", 1, "widget.v0", "widget.v1", "widget.v2")
	p.Mandatory("irrelevant", "c.v1")

	_, err := constraints.Solve(context.Background(), &p)
	var ue *constraints.UnsatError[string, string]
	if errors.As(err, &ue) {
		for _, c := range ue.Core {
			fmt.Println(c.Reason)
		}
	}
	// Output:
	// subscription a
	// subscription b
	// a.v1 requires API Widget
	// b.v1 requires package widget < 1.0
	// one bundle of widget
}
