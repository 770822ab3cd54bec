package main

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReserveHeap checks on this machine that reserveHeap leaves ranges
// of the heap at least heapReserve long in all marked for huge pages ("hg" among
// its VmFlags in /proc/self/smaps), when the kernel gives huge pages only
// on request, and that GODEBUG=disablethp=1 leaves the heap alone.
func TestReserveHeap(t *testing.T) {
	setting, err := os.ReadFile(thpSetting)
	if err != nil || !bytes.Contains(setting, []byte("[madvise]")) {
		t.Skipf("transparent huge pages are not given on request here (%q, %v)", setting, err)
	}
	t.Setenv("GODEBUG", "disablethp=1")
	before := hugeRanges(t)
	if _, err := reserveHeap(); err != nil {
		t.Fatal(err)
	}
	if after := hugeRanges(t); after != before {
		t.Errorf("with GODEBUG=disablethp=1: %d bytes marked, %d before", after, before)
	}
	t.Setenv("GODEBUG", "")
	if _, err := reserveHeap(); err != nil {
		t.Fatal(err)
	}
	// A range freed by an earlier run of the test (-count) is marked
	// already and may be the one reused: at least heapReserve bytes.
	if after := hugeRanges(t); after < heapReserve {
		t.Errorf("%d bytes marked for huge pages (%d before): want at least %d", after, before, heapReserve)
	}
}

// hugeRanges returns how many bytes of the process's mappings are marked
// MADV_HUGEPAGE.
func hugeRanges(t *testing.T) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	total, size := 0, 0
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 1 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":"):
			bounds := strings.SplitN(fields[0], "-", 2)
			lo, err1 := strconv.ParseUint(bounds[0], 16, 64)
			hi, err2 := strconv.ParseUint(bounds[1], 16, 64)
			if err1 == nil && err2 == nil {
				size = int(hi - lo)
			}
		case strings.HasPrefix(line, "VmFlags:"):
			for _, flag := range fields[1:] {
				if flag == "hg" {
					total += size
				}
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}
