package main

import (
	"bytes"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
)

// heapReserve is how much heap the command asks the kernel to back with
// transparent huge pages: a little more than the README's command keeps
// (~50 MB resident).
const heapReserve = 64 << 20

// thpSetting is where Linux says when it backs memory with transparent
// huge pages.
const thpSetting = "/sys/kernel/mm/transparent_hugepage/enabled"

// reserveHeap makes the first heapReserve bytes of the heap eligible for
// transparent huge pages, when the kernel gives them only to memory that
// asks ("madvise", the usual default) and GODEBUG does not say
// disablethp=1.
//
// The command line calls it once, before it reads the first catalog (see
// cli.PrepareHeap): a command that reads no catalog (help, --version)
// pays nothing for it; the others pay one early collection of a tiny
// heap, concurrent with their work (~2 ms of CPU on the other core).
//
// Why: a command allocates most of what it keeps (the decoded catalog,
// tens of MB) on pages it touches for the first time, and each 4 KiB page
// costs a page fault: the README's command took ~9,100 of them, a third
// of its CPU time on a virtual machine. Backed by 2 MiB pages the same
// heap takes a few dozen. Go maps its heap as it grows, a mapping at a
// time, and asks for no huge pages itself, so the command grows it once
// here by allocating heapReserve bytes it never touches, marks that range
// (MADV_HUGEPAGE) and lets the collector free it: the range is dead when
// reserveHeap returns, and the next allocation, finding the heap past its
// goal, starts the collection that frees it (concurrently: waiting for it
// here with runtime.GC took ~10 ms of wall clock); later allocations
// reuse those addresses. The range is the heap's own; nothing outside Go's
// allocator is mapped, and nothing changes but how the kernel backs it.
// It reports whether it left such a range for the collector to free, and
// the madvise error, if any, for the tests.
func reserveHeap() (bool, error) {
	if strings.Contains(","+os.Getenv("GODEBUG")+",", ",disablethp=1,") {
		return false, nil
	}
	setting, err := os.ReadFile(thpSetting)
	if err != nil || !bytes.Contains(setting, []byte("[madvise]")) {
		return false, nil
	}
	// Allocating heapReserve would start a collection at once, while b
	// is still live; with the collector off until b is dead, the first
	// collection after frees it.
	gcPercent := debug.SetGCPercent(-1)
	err = madviseHuge(heapReserve)
	debug.SetGCPercent(gcPercent)
	return true, err
}

// madviseHuge allocates n bytes, marks them MADV_HUGEPAGE and drops them.
//
//go:noinline
func madviseHuge(n int) error {
	return syscall.Madvise(make([]byte, n), syscall.MADV_HUGEPAGE)
}
