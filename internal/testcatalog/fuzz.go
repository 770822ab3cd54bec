package testcatalog

// FuzzBytes returns a function that hands out the bytes of a fuzz input one
// at a time, as ints from 0 to 255, then 0 once the input is used up, so
// that a generator driven by it never runs out of decisions.
func FuzzBytes(data []byte) func() int {
	return func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
}
