// Package table holds the types that srgen's generated field tables,
// strip lists and validators are made of.
//
// It is the leaf of the import graph: it imports only the standard library,
// and generated code imports it (and runtime/jsonvalue) and nothing else of
// this module. Closed sets are typed string enums with a shared prefix.
package table
