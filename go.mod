module github.com/sextantdev/sextant

go 1.24

require (
	github.com/blang/semver/v4 v4.0.0
	github.com/go-air/gini v1.0.4
	github.com/spf13/cobra v1.10.2
	github.com/stretchr/testify v1.12.1
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
