//go:build !linux

package docstream

// adviseHugePages does nothing where huge pages are not advised (see
// hugepages_linux.go).
func adviseHugePages([]byte) {}
