package constraints

// SetFallbackAfter sets the number of backjumps after which the engine
// search of p hands over to gini (negative: at the first dead end).
func SetFallbackAfter[V comparable, R any](p *Problem[V, R], n int) {
	p.fallbackAfter = n
}
