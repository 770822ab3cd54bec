//go:build !linux

package main

// reserveHeap does nothing outside Linux (see heap_linux.go).
func reserveHeap() (bool, error) { return false, nil }
