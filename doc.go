// Package sextant is the one door to Sextant: it turns inputs — catalogs
// (files, folders, streams, images, the images of CatalogSources) and a
// cluster's manifests — into a [World], and answers the questions every
// command asks of it. The command line (cmd/sextant) parses its flags into
// an [Input] and [Options], calls [Load], asks the world and renders the
// answer; a controller or a CI job that does the same gets the same
// answer, byte for byte.
//
// # The world
//
// [Load] reads every input and reports every problem of them at once (each
// naming its file and object). It then decides, by the rules below, what
// the engines (package resolver for OLM v0, package olmv1 for OLM v1)
// need and the command line used to work out by itself:
//
//   - each catalog's identity and priority ([Catalog]): the CatalogSource of
//     its name gives its namespace and priority (the one in the namespace
//     resolved when several share it); without one, the namespace the
//     subscriptions naming it agree on, else the global namespace, and
//     priority 0;
//   - each catalog's name: the name given ([CatalogInput.Name]); else, for
//     an image whose reference (normalized as the kubelet reads
//     spec.image, or the reference an OCI layout or docker archive records)
//     is the spec.image of CatalogSources of one name, that name; else the
//     base name of its file, folder or repository;
//   - the images of the CatalogSources that the subscriptions name and no
//     catalog given stands for, read through [Options.Images];
//   - the namespaces to resolve ([World.Namespaces]): the one asked for,
//     else the one the subscriptions share, else the one the installed CSVs
//     share; or every namespace resolution concerns (resolver.Namespaces);
//   - the global catalog namespace: the one asked for, else the one namespace
//     the manifests point to for catalogs (cluster.State.CatalogNamespaces),
//     else resolver.DefaultGlobalNamespace;
//   - the OperatorGroups the CSVs' annotations name when the manifests list
//     none ([World.OperatorGroups], cluster.State.InferOperatorGroups);
//   - the OLM v1 catalogs: every catalog is the ClusterCatalog of its name.
//
// What the world decided that the user did not say is a [Note], with a
// code to filter on. Nothing in a note or an error names a command-line
// flag: the command line adds its advice from the codes and error types.
//
// # Asking
//
// The world answers with the library's typed values, each with one JSON
// shape (its MarshalJSON or its fields' tags) and one text (its WriteText
// with [TextOptions]), and No for the command line's exit status 1:
//
//   - [World.Resolve]: v0 and v1 together ([Answer]: each namespace's
//     [NamespaceAnswer], the plan with its held-back reasons and fixes or
//     the explained conflict, and the v1 [olmv1.Outcome]);
//   - [World.Rollout]: the rounds, round 1 being Resolve's plan, and how
//     the rollout ended ([RolloutAnswer]);
//   - [World.Why]: why a package, bundle, subscription or ClusterExtension
//     is in the answer as it is ([WhyAnswer]);
//   - [World.ResolveFor] and [World.ResolveForV1]: what an application's
//     APIs need ([ForAnswer], [olmv1.APIExtensions]);
//   - [World.Provides]: the packages that provide an API ([ProvidesAnswer]).
//
// Features that need the whole world take a *World (mirror.Compute), and
// [World.Reload] is the same cluster with other catalogs.
//
// A World is immutable once loaded and safe for concurrent use; its
// answers share nothing with it that a caller could change.
package sextant
