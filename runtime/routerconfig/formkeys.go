package routerconfig

import (
	"reflect"
	"slices"
	"strings"
)

// keysOf returns the keys of form, a struct of file.go, in field order:
// the keys a section allows. It panics on a field without a yaml tag, a
// mistake in file.go that every test of the package meets at init.
func keysOf(form any) []string {
	t := reflect.TypeOf(form)
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		key := t.Field(i).Tag.Get("yaml")
		if key == "" {
			panic("routerconfig: file.go's " + t.Name() + "." + t.Field(i).Name + " has no yaml tag")
		}
		keys = append(keys, key)
	}
	return keys
}

// requiredOf returns the keys of form whose schema tag says required.
func requiredOf(form any) []string {
	t := reflect.TypeOf(form)
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		items := strings.Split(f.Tag.Get("schema"), ";") //vocab:not-spec the file form's tag
		if slices.Contains(items, "required") {
			keys = append(keys, f.Tag.Get("yaml"))
		}
	}
	return keys
}
