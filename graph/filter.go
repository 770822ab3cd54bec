package graph

// Filter returns the part of c that keeps the bundles for which keep
// returns true, as a catalog of its own:
//   - a package with at least one kept bundle, with its olm.package blob
//     (default channel unchanged) when it had one;
//   - each of its channels that lists a kept bundle, with only the entries
//     of kept bundles, each entry as it is (replaces, skips and skipRange
//     unchanged, even where they name bundles left out);
//   - the kept bundles, with their properties and relatedImages;
//   - the package's deprecation entries that name the package itself, a
//     kept channel or a kept bundle, in one olm.deprecations blob;
//   - the blobs of other schemas (Catalog.Others) of kept packages.
//
// Packages without a kept bundle, and blobs of other schemas that name no
// package, are left out. Positions are those of c. Filter does not check
// that the result is valid: a kept package whose default channel keeps no
// entry, or a channel whose kept entries leave two heads, is reported by
// Validate on the result. keep is called once per bundle, in package then
// bundle name order. c is not modified; the result shares c's immutable
// values (properties, ranges). It fails only as Builder.Build does, which
// a catalog built without errors never makes it do.
func (c *Catalog) Filter(keep func(*Bundle) bool) (*Catalog, error) {
	b := NewBuilder()
	kept := map[string]bool{} // bundle names of the current package
	pkgs := map[string]bool{}
	for _, p := range c.Packages() {
		clear(kept)
		for _, bd := range p.Bundles {
			if keep(bd) {
				kept[bd.Name] = true
			}
		}
		if len(kept) == 0 {
			continue
		}
		pkgs[p.Name] = true
		if p.declared {
			b.addPackage(p.Pos, p.Name, p.DefaultChannel)
		}
		chans := map[string]bool{}
		for _, ch := range p.Channels {
			var entries []Entry
			var entryPos []Position
			for i, e := range ch.Entries {
				if kept[e.Name] {
					entries = append(entries, e)
					if i < len(ch.entryPos) {
						entryPos = append(entryPos, ch.entryPos[i])
					}
				}
			}
			if len(entryPos) != len(entries) {
				entryPos = nil
			}
			if len(entries) > 0 {
				chans[ch.Name] = true
				b.addChannel(ch.Pos, p.Name, ch.Name, entries, entryPos)
			}
		}
		for _, bd := range p.Bundles {
			if kept[bd.Name] {
				b.copyBundle(bd)
			}
		}
		var deps []Deprecation
		for _, d := range p.Deprecations {
			switch d.Reference.Schema {
			case SchemaPackage:
			case SchemaChannel:
				if !chans[d.Reference.Name] {
					continue
				}
			case SchemaBundle:
				if !kept[d.Reference.Name] {
					continue
				}
			default:
				continue
			}
			deps = append(deps, d)
		}
		if len(deps) > 0 {
			var pos Position
			if len(p.depBlobs) > 0 {
				pos = p.depBlobs[0]
			}
			b.addDeprecations(pos, p.Name, deps)
		}
	}
	for _, m := range c.Others() {
		if pkgs[m.Package] {
			b.addMeta(m)
		}
	}
	return b.Build()
}

// copyBundle adds a copy of bd, already typed, leaving its channels to
// Build.
func (b *Builder) copyBundle(bd *Bundle) {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]Bundle, 0, 256)
	}
	cp := *bd
	cp.Channels = nil
	b.slab = append(b.slab, cp)
	b.bundles = append(b.bundles, &b.slab[len(b.slab)-1])
}
