//go:build !linux

package docstream

// prefault does nothing where pages are not prefaulted (see
// prefault_linux.go).
func prefault([]byte) {}
