package constraints

// SetFallbackAfter sets the number of backjumps after which the engine
// search hands over to gini, and returns the previous value.
func SetFallbackAfter(n int) int {
	old := fallbackAfter
	fallbackAfter = n
	return old
}
