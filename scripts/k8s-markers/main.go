// Command k8s-markers reads Kubernetes' Go API packages and writes, for every OpenAPI
// definition name (io.k8s.api.core.v1.Container, ...), the schema that the packages'
// markers add and that k8s-openapi's schemas lack: list types and map keys, map types,
// defaults and kubebuilder validations. These are the markers controller-gen reads when
// a Go type embeds a Kubernetes type; kubegen applies the result to the k8s-openapi
// types a Rust type embeds.
//
// Usage: k8s-markers MODULE=DIR... > table.json
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
	"strconv"
	"strings"
)

// Schema is one node's additions: schema key → value.
type Schema map[string]any

// Definition is what one Go type contributes: markers on the type, and on its fields
// by JSON name.
type Definition struct {
	Schema     Schema            `json:"schema,omitempty"`
	Properties map[string]Schema `json:"properties,omitempty"`
}

type field struct {
	json    string
	inline  string // the embedded type, "pkg.Name", when the field is inlined
	markers Schema
}

type goType struct {
	markers Schema
	fields  []field
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s-markers MODULE=DIR...")
		os.Exit(2)
	}
	types := map[string]*goType{}
	for _, arg := range os.Args[1:] {
		module, dir, ok := strings.Cut(arg, "=")
		if !ok {
			fatal("argument %q is not MODULE=DIR", arg)
		}
		if err := readModule(module, dir, types); err != nil {
			fatal("%s: %v", module, err)
		}
	}

	table := map[string]Definition{}
	for name, t := range types {
		def := Definition{Schema: t.markers, Properties: map[string]Schema{}}
		collectFields(types, t, def.Schema, def.Properties, 0)
		if len(def.Schema) == 0 && len(def.Properties) == 0 {
			continue
		}
		if len(def.Properties) == 0 {
			def.Properties = nil
		}
		table[definitionName(name)] = def
	}
	out, err := json.MarshalIndent(table, "", " ")
	if err != nil {
		fatal("%v", err)
	}
	os.Stdout.Write(append(out, '\n'))
}

// collectFields adds the markers of t's fields, and of the fields of the types it
// inlines, by JSON name. An inlined type's own map type holds for the type that inlines
// it unless that type says otherwise (controller-gen flattens the two into one schema).
func collectFields(types map[string]*goType, t *goType, schema Schema, into map[string]Schema, depth int) {
	if depth > 8 {
		return
	}
	for _, f := range t.fields {
		if f.inline != "" {
			if inner, ok := types[f.inline]; ok {
				if mapType, ok := inner.markers["x-kubernetes-map-type"]; ok && schema["x-kubernetes-map-type"] == nil {
					schema["x-kubernetes-map-type"] = mapType
				}
				collectFields(types, inner, schema, into, depth+1)
			}
			continue
		}
		if len(f.markers) > 0 {
			into[f.json] = f.markers
		}
	}
}

// definitionName turns "k8s.io/api/core/v1.Container" into "io.k8s.api.core.v1.Container",
// the name k8s-openapi and the API server's OpenAPI give the type.
func definitionName(goName string) string {
	host, rest, _ := strings.Cut(goName, "/")
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".") + "." + strings.ReplaceAll(rest, "/", ".")
}

func readModule(module, root string, types map[string]*goType) error {
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
		readFile(pkg, file, types)
		return nil
	})
}

func readFile(pkg string, file *ast.File, types map[string]*goType) {
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
		if !ok || gen.Tok != token.TYPE {
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
			t := &goType{markers: markers(doc, pkg+"."+ts.Name.Name)}
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, f := range st.Fields.List {
					t.fields = append(t.fields, readField(pkg, imports, ts.Name.Name, f)...)
				}
			}
			types[pkg+"."+ts.Name.Name] = t
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
	if name == "" {
		return nil // no wire name: not part of the JSON
	}
	where := pkg + "." + owner + "." + name
	return []field{{json: name, markers: markers(f.Doc, where)}}
}

// typeName resolves an embedded field's type to "pkg.Name".
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

// markers reads the markers controller-gen applies to a schema from a doc comment.
func markers(doc *ast.CommentGroup, where string) Schema {
	out := Schema{}
	if doc == nil {
		return out
	}
	for _, c := range doc.List {
		line := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if !strings.HasPrefix(line, "+") {
			continue
		}
		key, value, _ := strings.Cut(line[1:], "=")
		key = strings.TrimPrefix(key, "k8s:")
		switch key {
		case "listType":
			out["x-kubernetes-list-type"] = value
		case "listMapKey": // written twice in newer releases, as +listMapKey and +k8s:listMapKey
			keys, _ := out["x-kubernetes-list-map-keys"].([]string)
			if !slices.Contains(keys, value) {
				out["x-kubernetes-list-map-keys"] = append(keys, value)
			}
		case "mapType", "structType":
			out["x-kubernetes-map-type"] = value
		case "default", "kubebuilder:default":
			if strings.HasPrefix(value, "ref(") {
				continue // a Go constant's name: controller-gen leaves these out too
			}
			var v any
			if err := json.Unmarshal([]byte(value), &v); err != nil {
				warn("%s: +%s=%s is not JSON; left out", where, key, value)
				continue
			}
			out["default"] = v
		case "kubebuilder:validation:Enum":
			var values []any
			for _, s := range strings.Split(value, ";") {
				values = append(values, scalar(s))
			}
			out["enum"] = values
		case "kubebuilder:validation:Pattern":
			out["pattern"] = unquote(value)
		case "kubebuilder:validation:Format":
			out["format"] = unquote(value)
		case "kubebuilder:validation:MaxLength", "kubebuilder:validation:MinLength",
			"kubebuilder:validation:MaxItems", "kubebuilder:validation:MinItems",
			"kubebuilder:validation:MaxProperties", "kubebuilder:validation:MinProperties",
			"kubebuilder:validation:Maximum", "kubebuilder:validation:Minimum",
			"kubebuilder:validation:MultipleOf":
			name := strings.TrimPrefix(key, "kubebuilder:validation:")
			n, err := strconv.ParseFloat(value, 64)
			if err != nil {
				warn("%s: +%s=%s is not a number; left out", where, key, value)
				continue
			}
			out[strings.ToLower(name[:1])+name[1:]] = n
		case "kubebuilder:validation:ExclusiveMaximum", "kubebuilder:validation:ExclusiveMinimum":
			name := strings.TrimPrefix(key, "kubebuilder:validation:")
			out[strings.ToLower(name[:1])+name[1:]] = value == "" || value == "true"
		}
	}
	return out
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
