package graph

// CSVRecord is what a catalog records of a bundle's ClusterServiceVersion:
// the CSV manifest itself when the bundle embeds its manifests
// (olm.bundle.object), else what olm.csv.metadata says of the CSV. Every
// package that reads a bundle's install modes or owned API services reads
// them here, so that both properties are read one way.
type CSVRecord struct {
	// Manifests are the bundle's embedded manifests; nil when it has none.
	Manifests *BundleManifests
	// FromManifest reports that the fields below come from the CSV
	// manifest among Manifests; false: from olm.csv.metadata, or nothing.
	FromManifest bool
	// InstallModes in the order the CSV lists them.
	InstallModes []InstallMode
	// ModesKnown is false when the catalog records neither a CSV manifest
	// nor olm.csv.metadata: the install modes are not known.
	ModesKnown bool
	// OwnedAPIServices is the CSV's spec.apiservicedefinitions.owned; nil
	// when it owns none or the catalog does not say.
	OwnedAPIServices []APIServiceDescription
}

// CSVRecord reads what the catalog records of b's CSV (see CSVRecord). Its
// error is that of Manifests (an olm.bundle.object that does not decode);
// the record is still read from what did decode, else from
// olm.csv.metadata. The manifests are decoded afresh on each call, and the
// record belongs to the caller.
func (b *Bundle) CSVRecord() (CSVRecord, error) {
	man, err := b.Manifests()
	return b.csvRecord(man), err // with an error, from what did decode
}

// csvRecord reads the record of b's CSV from its decoded manifests man
// (nil: none decoded), else from olm.csv.metadata.
func (b *Bundle) csvRecord(man *BundleManifests) CSVRecord {
	r := CSVRecord{Manifests: man}
	switch {
	case man != nil && man.CSV != nil:
		r.FromManifest, r.ModesKnown = true, true
		r.InstallModes = man.CSV.InstallModes
		r.OwnedAPIServices = man.CSV.APIServiceDefinitions.Owned
	case b.CSVMetadata != nil:
		r.ModesKnown = true
		r.InstallModes = b.CSVMetadata.InstallModes
		if d := b.CSVMetadata.APIServiceDefinitions; d != nil {
			r.OwnedAPIServices = d.Owned
		}
	}
	return r
}
