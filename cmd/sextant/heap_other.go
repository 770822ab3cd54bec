//go:build !linux

package main

// reserveHeap does nothing outside Linux (see heap_linux.go).
func reserveHeap() error { return nil }
