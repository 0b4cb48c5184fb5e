// Command k8s-markers reads Kubernetes' Go API packages and writes, for every OpenAPI
// definition name (io.k8s.api.core.v1.Container, ...), what the packages' markers say
// about the type's schema that k8s-openapi's schemas lack: list types and map keys, map
// types, defaults, validations (kubebuilder's and the declarative `+k8s:` ones that
// controller-gen reads), enums and which fields are required. These are the markers
// controller-gen applies when a Go type embeds a Kubernetes type; kubegen applies the
// table to the k8s-openapi types a Rust type embeds.
//
// Usage: k8s-markers MODULE=DIR... > table.json
//
// Each definition's entry:
//
//	{"markers": {...}, "required": [...], "closed": true, "properties": {"field": {...}}}
//
// where a markers document is kubegen's own (kubegen/src/schema/markers.rs):
// {"set": [[key, value], ...], "rules": [...], "items": {...}}.
//
// Only the standard library: the packages are parsed, never compiled.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Markers is one node's markers, in kubegen's format.
type Markers struct {
	Set   [][2]any         `json:"set,omitempty"`
	Rules []map[string]any `json:"rules,omitempty"`
	Items *Markers         `json:"items,omitempty"`
}

func (m *Markers) empty() bool {
	return m == nil || len(m.Set) == 0 && len(m.Rules) == 0 && m.Items.empty()
}

func (m *Markers) set(key string, value any) {
	for i, kv := range m.Set {
		if kv[0] == key {
			m.Set[i][1] = value
			return
		}
	}
	m.Set = append(m.Set, [2]any{key, value})
}

func (m *Markers) get(key string) any {
	for _, kv := range m.Set {
		if kv[0] == key {
			return kv[1]
		}
	}
	return nil
}

// Definition is what one Go struct contributes.
type Definition struct {
	Markers  *Markers  `json:"markers,omitempty"`
	Required *[]string `json:"required,omitempty"`
	Closed   bool      `json:"closed,omitempty"`
	// Shallow: copied by assignment in Go (no pointer, slice or map inside), as
	// deepcopy generators treat it.
	Shallow    bool                `json:"shallow,omitempty"`
	Properties map[string]*Markers `json:"properties,omitempty"`
	// Fields: every JSON field name, inlined structs' included, so the derive can say at
	// compile time that a list-map key names no field of the items.
	Fields []string `json:"fields,omitempty"`
}

type field struct {
	// value: the Go type is copied by assignment (no pointer, slice or map), unless it
	// names a struct (typeName), which decides for itself.
	value    bool
	json     string
	inline   string // the embedded type, "pkg.Name", when the field is inlined
	typeName string // the field's named type, "pkg.Name", through pointers
	slice    bool   // the field is a slice of typeName
	optional bool
	markers  *Markers
	required bool // +k8s:required: non-empty, as controller-gen writes it
	immut    bool // +k8s:immutable
}

type goType struct {
	// valueKind: a non-struct named type that is copied by assignment (a string, a number).
	valueKind bool
	doc       string // the doc comment's text, for a non-struct type (a struct's is in k8s-openapi)
	isStruct  bool
	markers   *Markers
	fields    []field
	enum      bool // +k8s:enum: the type's constants are its values
	values    []any
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s-markers MODULE=DIR...")
		os.Exit(2)
	}
	types := map[string]*goType{}
	consts := map[string][]any{} // typed string constants by type, in source order
	for _, arg := range os.Args[1:] {
		module, dir, ok := strings.Cut(arg, "=")
		if !ok {
			fatal("argument %q is not MODULE=DIR", arg)
		}
		if err := readModule(module, dir, types, consts); err != nil {
			fatal("%s: %v", module, err)
		}
	}
	for name, t := range types {
		if t.enum {
			t.values = consts[name]
		}
	}

	shallowTypes := shallow(types)
	table := map[string]Definition{}
	for name, t := range types {
		if !t.isStruct {
			continue
		}
		def := Definition{Markers: t.markers, Properties: map[string]*Markers{}}
		var required []string
		var fields []field
		collectFields(types, t, def.Markers, &fields, 0)
		for _, f := range fields {
			m := f.markers
			// A list of a named scalar type (`[]Capability`): its items carry the type's
			// documentation, as controller-gen writes it; k8s-openapi inlines them bare.
			if inner, ok := types[f.typeName]; ok && f.slice && !inner.isStruct && inner.doc != "" {
				if m.Items == nil {
					m.Items = &Markers{}
				}
				m.Items.set("description", inner.doc)
			}
			if inner, ok := types[f.typeName]; ok && inner.enum && len(inner.values) > 0 {
				if f.slice {
					if m.Items == nil {
						m.Items = &Markers{}
					}
					m.Items.set("enum", inner.values)
				} else if m.get("enum") == nil {
					m.set("enum", inner.values)
				}
			}
			if f.required {
				m.set("x-kubegen-non-empty", true)
			}
			if f.immut {
				m.Rules = append(m.Rules, map[string]any{"rule": "self == oldSelf", "message": "field is immutable"})
			}
			if !m.empty() {
				def.Properties[f.json] = m
			}
			if !f.optional {
				required = append(required, f.json)
			}
		}
		// An optional immutable field may not be cleared once set either.
		for _, f := range fields {
			if f.immut && f.optional {
				def.Markers.Rules = append(def.Markers.Rules, map[string]any{
					"rule":    fmt.Sprintf("!has(oldSelf.%s) || has(self.%s)", f.json, f.json),
					"message": fmt.Sprintf("field %s is immutable once set", f.json),
				})
			}
		}
		for _, f := range fields {
			def.Fields = append(def.Fields, f.json)
		}
		sort.Strings(def.Fields)
		sort.Strings(required)
		if required == nil {
			required = []string{}
		}
		def.Required = &required
		def.Closed = len(fields) == 0
		def.Shallow = shallowTypes[name]
		if def.Markers.empty() {
			def.Markers = nil
		}
		if len(def.Properties) == 0 {
			def.Properties = nil
		}
		table[definitionName(name)] = def
	}
	// One definition per line, in name order: diffs between releases stay readable.
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	var out strings.Builder
	out.WriteString("{\n")
	for i, name := range names {
		line, err := json.Marshal(table[name])
		if err != nil {
			fatal("%s: %v", name, err)
		}
		key, _ := json.Marshal(name)
		sep := ","
		if i == len(names)-1 {
			sep = ""
		}
		fmt.Fprintf(&out, "%s: %s%s\n", key, line, sep)
	}
	out.WriteString("}\n")
	os.Stdout.WriteString(out.String())
}

// collectFields lists t's fields and those of the types it inlines. An inlined type's
// own map type holds for the type that inlines it unless that type says otherwise
// (controller-gen flattens the two into one schema).
func collectFields(types map[string]*goType, t *goType, markers *Markers, into *[]field, depth int) {
	if depth > 8 {
		return
	}
	for _, f := range t.fields {
		if f.inline != "" {
			if inner, ok := types[f.inline]; ok {
				if mapType := inner.markers.get("x-kubernetes-map-type"); mapType != nil && markers.get("x-kubernetes-map-type") == nil {
					markers.set("x-kubernetes-map-type", mapType)
				}
				collectFields(types, inner, markers, into, depth+1)
			}
			continue
		}
		*into = append(*into, f)
	}
}

// definitionName turns "k8s.io/api/core/v1.Container" into "io.k8s.api.core.v1.Container",
// the name k8s-openapi and the API server's OpenAPI give the type.
func definitionName(goName string) string {
	host, rest, _ := strings.Cut(goName, "/")
	labels := strings.Split(host, ".")
	slices.Reverse(labels)
	return strings.Join(labels, ".") + "." + strings.ReplaceAll(rest, "/", ".")
}

func readModule(module, root string, types map[string]*goType, consts map[string][]any) error {
	fset := token.NewFileSet()
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") ||
			strings.HasPrefix(name, "zz_generated") || strings.HasSuffix(name, ".pb.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := module
		if rel != "." {
			pkg = module + "/" + filepath.ToSlash(rel)
		}
		file, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil // not every file in a module is meant to build
		}
		readFile(pkg, file, types, consts)
		return nil
	})
}

func readFile(pkg string, file *ast.File, types map[string]*goType, consts map[string][]any) {
	imports := map[string]string{}
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		alias := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			alias = imp.Name.Name
		}
		imports[alias] = path
	}
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		if gen.Tok == token.CONST {
			readConsts(pkg, gen, consts)
			continue
		}
		if gen.Tok != token.TYPE {
			continue
		}
		for _, spec := range gen.Specs {
			ts := spec.(*ast.TypeSpec)
			if !ts.Name.IsExported() {
				continue
			}
			doc := ts.Doc
			if doc == nil && len(gen.Specs) == 1 {
				doc = gen.Doc
			}
			where := pkg + "." + ts.Name.Name
			m, _ := readMarkers(doc, where)
			t := &goType{markers: m.markers, enum: m.enum, doc: docText(doc), valueKind: isValueExpr(ts.Type)}
			if st, ok := ts.Type.(*ast.StructType); ok {
				t.isStruct = true
				for _, f := range st.Fields.List {
					t.fields = append(t.fields, readField(pkg, imports, ts.Name.Name, f)...)
				}
			}
			types[where] = t
		}
	}
}

// readConsts records string constants declared with a named type, for +k8s:enum.
func readConsts(pkg string, gen *ast.GenDecl, consts map[string][]any) {
	for _, spec := range gen.Specs {
		vs, ok := spec.(*ast.ValueSpec)
		if !ok || vs.Type == nil {
			continue
		}
		ident, ok := vs.Type.(*ast.Ident)
		if !ok {
			continue
		}
		for _, v := range vs.Values {
			if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					key := pkg + "." + ident.Name
					consts[key] = append(consts[key], s)
				}
			}
		}
	}
}

func readField(pkg string, imports map[string]string, owner string, f *ast.Field) []field {
	tag := ""
	if f.Tag != nil {
		tag, _ = strconv.Unquote(f.Tag.Value)
	}
	jsonTag, hasTag := reflect.StructTag(tag).Lookup("json")
	name, opts, _ := strings.Cut(jsonTag, ",")
	if name == "-" {
		return nil
	}
	if len(f.Names) == 0 && name == "" && (!hasTag || strings.Contains(opts, "inline") || jsonTag == "") {
		return []field{{inline: typeName(pkg, imports, f.Type)}}
	}
	if name == "" || (len(f.Names) > 0 && !f.Names[0].IsExported()) {
		return nil // not part of the JSON
	}
	m, flags := readMarkers(f.Doc, pkg+"."+owner+"."+name)
	out := field{json: name, markers: m.markers, required: flags.k8sRequired, immut: flags.immutable}
	// controller-gen's rule: omitempty/omitzero or an optional marker make a field
	// optional; a required marker makes it required again.
	out.optional = strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") || flags.optional
	if flags.required {
		out.optional = false
	}
	expr := f.Type
	if star, ok := expr.(*ast.StarExpr); ok {
		expr = star.X
	}
	if arr, ok := expr.(*ast.ArrayType); ok && arr.Len == nil {
		out.slice = true
		expr = arr.Elt
	}
	out.typeName = typeName(pkg, imports, expr)
	out.value = f.Type == expr && isValueExpr(expr)
	return []field{out}
}

// isValueExpr: an identifier or qualified name (a basic or named type), not a pointer,
// slice, map, interface or func.
func isValueExpr(expr ast.Expr) bool {
	switch expr.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return true
	}
	return false
}

// shallow finds the structs that are copied by assignment: every field a basic type, a
// named value type, or a shallow struct (a fixpoint; unknown types are deep).
func shallow(types map[string]*goType) map[string]bool {
	basic := map[string]bool{"string": true, "bool": true, "int": true, "int32": true, "int64": true,
		"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "float32": true,
		"float64": true, "byte": true, "rune": true}
	out := map[string]bool{}
	for name, t := range types {
		out[name] = t.isStruct
	}
	for changed := true; changed; {
		changed = false
		for name, t := range types {
			if !out[name] {
				continue
			}
			var fields []field
			collectFields(types, t, &Markers{}, &fields, 0)
			ok := true
			for _, f := range t.fields {
				if f.inline != "" {
					if !out[f.inline] {
						ok = false
					}
				}
			}
			for _, f := range fields {
				base := f.typeName[strings.LastIndex(f.typeName, ".")+1:]
				inner, known := types[f.typeName]
				switch {
				case !f.value:
					ok = false
				case known && inner.isStruct:
					ok = ok && out[f.typeName]
				case known:
					ok = ok && inner.valueKind
				case basic[base] && !strings.Contains(f.typeName, "/"):
					// a builtin, seen as "pkg.string"
				default:
					ok = ok && basic[base]
				}
			}
			if !ok {
				out[name] = false
				changed = true
			}
		}
	}
	return out
}

// typeName resolves a type expression to "pkg.Name".
func typeName(pkg string, imports map[string]string, expr ast.Expr) string {
	switch e := expr.(type) {
	case *ast.Ident:
		return pkg + "." + e.Name
	case *ast.StarExpr:
		return typeName(pkg, imports, e.X)
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return imports[x.Name] + "." + e.Sel.Name
		}
	}
	return ""
}

type markerFlags struct {
	optional, required, k8sRequired, immutable bool
}

type readResult struct {
	markers *Markers
	enum    bool
}

// readMarkers reads the markers controller-gen applies to a schema from a doc comment.
func readMarkers(doc *ast.CommentGroup, where string) (readResult, markerFlags) {
	out := &Markers{}
	var flags markerFlags
	enum := false
	if doc == nil {
		return readResult{markers: out}, flags
	}
	for _, c := range doc.List {
		line := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if !strings.HasPrefix(line, "+") {
			continue
		}
		key, value, _ := strings.Cut(line[1:], "=")
		if strings.HasPrefix(key, "k8s:") {
			// Declarative validation tags may end in a comment (gengo's codetags).
			if i := strings.IndexByte(value, '#'); i >= 0 {
				value = value[:i]
			}
			value = strings.TrimSpace(value)
		}
		switch key {
		case "listType", "k8s:listType":
			out.set("x-kubernetes-list-type", value)
		case "listMapKey", "k8s:listMapKey":
			keys, _ := out.get("x-kubernetes-list-map-keys").([]string)
			if !slices.Contains(keys, value) {
				out.set("x-kubernetes-list-map-keys", append(keys, value))
			}
		case "mapType", "structType":
			out.set("x-kubernetes-map-type", value)
		case "default", "kubebuilder:default":
			if strings.HasPrefix(value, "ref(") {
				continue // a Go constant's name: controller-gen leaves these out too
			}
			var v any
			if err := json.Unmarshal([]byte(value), &v); err != nil {
				warn("%s: +%s=%s is not JSON; left out", where, key, value)
				continue
			}
			out.set("default", v)
		case "kubebuilder:validation:Enum":
			var values []any
			for _, s := range strings.Split(value, ";") {
				values = append(values, scalar(s))
			}
			out.set("enum", values)
		case "kubebuilder:validation:Pattern":
			out.set("pattern", unquote(value))
		case "kubebuilder:validation:Format":
			out.set("format", unquote(value))
		case "kubebuilder:validation:MaxLength", "kubebuilder:validation:MinLength",
			"kubebuilder:validation:MaxItems", "kubebuilder:validation:MinItems",
			"kubebuilder:validation:MaxProperties", "kubebuilder:validation:MinProperties",
			"kubebuilder:validation:Maximum", "kubebuilder:validation:Minimum",
			"kubebuilder:validation:MultipleOf", "k8s:maxItems", "k8s:minimum", "k8s:maximum":
			name := key[strings.LastIndex(key, ":")+1:]
			n, err := strconv.ParseFloat(value, 64)
			if err != nil {
				warn("%s: +%s=%s is not a number; left out", where, key, value)
				continue
			}
			out.set(strings.ToLower(name[:1])+name[1:], n)
		case "kubebuilder:validation:ExclusiveMaximum", "kubebuilder:validation:ExclusiveMinimum":
			name := strings.TrimPrefix(key, "kubebuilder:validation:")
			out.set(strings.ToLower(name[:1])+name[1:], value == "" || value == "true")
		case "optional", "kubebuilder:validation:Optional", "k8s:optional":
			flags.optional = true
		case "required", "kubebuilder:validation:Required":
			flags.required = true
		case "k8s:required":
			flags.required = true
			flags.k8sRequired = true
		case "k8s:immutable":
			flags.immutable = true
		case "k8s:enum":
			enum = true
		}
	}
	return readResult{markers: out, enum: enum}, flags
}

// docText is a doc comment without its markers, up to a `---` line, its lines joined
// with spaces as in k8s-openapi's descriptions.
func docText(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	var words []string
	for _, c := range doc.List {
		line := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if line == "---" {
			break
		}
		if strings.HasPrefix(line, "+") {
			continue
		}
		words = append(words, strings.Fields(line)...)
	}
	return strings.Join(words, " ")
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '`' || s[0] == '"') {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
		return s[1 : len(s)-1]
	}
	return s
}

// scalar reads one Enum value as controller-gen does: a number, a quoted or a bare string.
func scalar(s string) any {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return n
	}
	return unquote(s)
}

func warn(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "k8s-markers: "+format+"\n", args...)
}

func fatal(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "k8s-markers: "+format+"\n", args...)
	os.Exit(1)
}
