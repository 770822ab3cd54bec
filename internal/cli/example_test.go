package cli_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sextantdev/sextant/internal/cli"
)

// Run is what cmd/sextant's main calls; tests call it in-process.
func ExampleRun() {
	catalog := `{"schema":"olm.package","name":"hello","defaultChannel":"stable"}
{"schema":"olm.channel","package":"hello","name":"stable","entries":[{"name":"hello.v1.0.0"},{"name":"hello.v1.1.0","replaces":"hello.v1.0.0"}]}
{"schema":"olm.bundle","name":"hello.v1.0.0","package":"hello","image":"example.com/hello@sha256:10","properties":[{"type":"olm.package","value":{"packageName":"hello","version":"1.0.0"}}]}
{"schema":"olm.bundle","name":"hello.v1.1.0","package":"hello","image":"example.com/hello@sha256:11","properties":[{"type":"olm.package","value":{"packageName":"hello","version":"1.1.0"}}]}
`
	code := cli.Run(context.Background(), []string{"graph", "-", "--package", "hello"},
		strings.NewReader(catalog), os.Stdout, os.Stdout)
	fmt.Println("exit status", code)
	// Output:
	// package hello (default channel stable)
	// channel stable (default)
	//   hello.v1.1.0 1.1.0 [head]
	//     replaces hello.v1.0.0
	//   hello.v1.0.0 1.0.0
	// exit status 0
}

// A check whose answer is no exits with status 1; bad input with 2.
func ExampleRun_check() {
	catalog := `{"schema":"olm.package","name":"hello","defaultChannel":"stable"}
{"schema":"olm.channel","package":"hello","name":"stable","entries":[{"name":"hello.v1.0.0"},{"name":"hello.v1.1.0"}]}
{"schema":"olm.bundle","name":"hello.v1.0.0","package":"hello","image":"example.com/hello@sha256:10","properties":[{"type":"olm.package","value":{"packageName":"hello","version":"1.0.0"}}]}
{"schema":"olm.bundle","name":"hello.v1.1.0","package":"hello","image":"example.com/hello@sha256:11","properties":[{"type":"olm.package","value":{"packageName":"hello","version":"1.1.0"}}]}
`
	code := cli.Run(context.Background(), []string{"check", "--check", "structural", "-"},
		strings.NewReader(catalog), os.Stdout, os.Stdout)
	fmt.Println("exit status", code)

	code = cli.Run(context.Background(), []string{"check", "-"},
		strings.NewReader(`{"schema":"olm.package","name":"hello"`), os.Stdout, os.Stdout)
	fmt.Println("exit status", code)
	// Output:
	// catalog <stdin>: 1 package, 1 channel, 2 bundles
	// hello
	//   error    multiple-heads  stable: 2 heads: hello.v1.0.0, hello.v1.1.0 (line 2)
	// <stdin>: 1 error, 0 warnings, 0 info in 1 of 1 package
	// exit status 1
	// sextant check: <stdin>:1: olm.package "hello": invalid JSON: unexpected end of input, want ',' or '}'
	// exit status 2
}

// Resolve prints the plan of a namespace (exit status 0), or explains why
// there is none (exit status 1). The manifests are read from standard input
// here; the tests run from the module root.
func ExampleRun_resolve() {
	manifests := `apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata:
  name: app
  namespace: shop
spec:
  name: app
  channel: stable
  source: app
  sourceNamespace: olm
---
apiVersion: operators.coreos.com/v1
kind: OperatorGroup
metadata:
  name: shop
  namespace: shop
`
	code := cli.Run(context.Background(), []string{"resolve",
		"--catalog", "testdata/cli/catalogs/app.yaml", "--catalog", "testdata/cli/catalogs/db.json", "-f", "-"},
		strings.NewReader(manifests), os.Stdout, os.Stdout)
	fmt.Println("exit status", code)
	// Output:
	// namespace shop: 2 steps
	//  1. install db.v2.1.0 (dependency: OLM creates a subscription)
	//     package db 2.1.0, channel stable, catalog olm/db
	//     reason: required by app.v2.0.0 (olm.package.required db >=2.0.0 <3.0.0)
	//  2. install app.v2.0.0
	//     package app 2.0.0, channel stable, catalog olm/app
	//     reason: subscription app
	// note: install modes not checked for bundles without olm.csv.metadata: app.v2.0.0, db.v2.1.0
	// exit status 0
}
