// dashboard-check: the Grafana dashboards `codegen-cli create dashboards` writes, checked
// with Grafana's and Prometheus' own code against what a manager really serves.
//
//	go run . --metrics scrape.txt grafana/*.json
//
// Each file is decoded strictly into Grafana's dashboard model (grafana-foundation-sdk:
// required fields present, no field Grafana does not know, panels and Prometheus queries
// in their plugins' models); every panel query and variable query is parsed by
// Prometheus' PromQL parser; every metric a query selects must have a series in the
// scrape (a /metrics response: Prometheus or OpenMetrics text), and every label a query
// matches or groups by must be on one of the series it selects (job and instance, which
// Prometheus adds, aside). Prints what it checked;
// exits 1 naming the file, panel and metric of the first problems.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/promql/parser"
)

// Grafana's variables, as a query holds them, replaced by values PromQL parses.
var variables = strings.NewReplacer(
	"$__rate_interval", "5m", "$__interval", "1m", "$__range", "1h",
	"$job", "job", "$controller", "controller", "${datasource}", "ds",
)

// label_values(<selector>, <label>): Grafana's variable query, not PromQL.
var labelValues = regexp.MustCompile(`^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$`)

// The series a scrape serves: each metric name with the label names its samples carry.
// Only samples count: a family described (# TYPE) without a series is not served.
func served(path string) (map[string]map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names := map[string]map[string]bool{}
	scan := bufio.NewScanner(f)
	scan.Buffer(make([]byte, 1<<20), 1<<24)
	for scan.Scan() {
		line := scan.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		end := strings.IndexAny(line, "{ ")
		if end <= 0 {
			continue
		}
		labels := names[line[:end]]
		if labels == nil {
			labels = map[string]bool{}
			names[line[:end]] = labels
		}
		if line[end] == '{' {
			for _, pair := range sampleLabels.FindAllStringSubmatch(line[end:], -1) {
				labels[pair[1]] = true
			}
		}
	}
	return names, scan.Err()
}

// A label of a sample line: name="value" (values escape their quotes).
var sampleLabels = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"`)

// Labels Prometheus adds to every scraped series.
var targetLabels = map[string]bool{"job": true, "instance": true, "__name__": true}

// The metric names an expression selects, and its label names that no series it
// selects carries (matchers and by/without groupings).
func selected(expr string, names map[string]map[string]bool) ([]string, []string, error) {
	parsed, err := parser.NewParser(parser.Options{}).ParseExpr(variables.Replace(expr))
	if err != nil {
		return nil, nil, err
	}
	var metrics, unknown []string
	carries := func(metricNames []string, label string) bool {
		if targetLabels[label] {
			return true
		}
		for _, m := range metricNames {
			if names[m][label] {
				return true
			}
		}
		return false
	}
	parser.Inspect(parsed, func(node parser.Node, _ []parser.Node) error {
		switch n := node.(type) {
		case *parser.VectorSelector:
			metrics = append(metrics, n.Name)
			for _, m := range n.LabelMatchers {
				if !carries([]string{n.Name}, m.Name) {
					unknown = append(unknown, fmt.Sprintf("%s{%s}", n.Name, m.Name))
				}
			}
		case *parser.AggregateExpr:
			var under []string
			parser.Inspect(n.Expr, func(inner parser.Node, _ []parser.Node) error {
				if v, ok := inner.(*parser.VectorSelector); ok {
					under = append(under, v.Name)
				}
				return nil
			})
			for _, label := range n.Grouping {
				if !carries(under, label) {
					unknown = append(unknown, fmt.Sprintf("by (%s) over %s", label, strings.Join(under, ", ")))
				}
			}
		}
		return nil
	})
	return metrics, unknown, nil
}

// A query: where it is, its PromQL, and for a variable the label whose values it lists.
type query struct{ where, expr, label string }

func queries(raw []byte) ([]query, error) {
	var model struct {
		Panels []struct {
			Title   string `json:"title"`
			Type    string `json:"type"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Name  string          `json:"name"`
				Type  string          `json:"type"`
				Query json.RawMessage `json:"query"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(raw, &model); err != nil {
		return nil, err
	}
	var out []query
	for _, p := range model.Panels {
		if p.Type != "row" && len(p.Targets) == 0 {
			return nil, fmt.Errorf("panel %q has no query", p.Title)
		}
		for _, t := range p.Targets {
			out = append(out, query{fmt.Sprintf("panel %q", p.Title), t.Expr, ""})
		}
	}
	for _, v := range model.Templating.List {
		if v.Type != "query" {
			continue
		}
		var q struct {
			Query string `json:"query"`
		}
		if err := json.Unmarshal(v.Query, &q); err != nil {
			return nil, fmt.Errorf("variable %q: %v", v.Name, err)
		}
		m := labelValues.FindStringSubmatch(q.Query)
		if m == nil {
			return nil, fmt.Errorf("variable %q: %q is not label_values(<selector>, <label>)", v.Name, q.Query)
		}
		out = append(out, query{fmt.Sprintf("variable %q", v.Name), m[1], m[2]})
	}
	return out, nil
}

// The SDK returns its error list as an error even when it is empty.
func failure(err error) bool {
	var list cog.BuildErrors
	if errors.As(err, &list) {
		return len(list) > 0
	}
	return err != nil
}

func main() {
	metrics := flag.String("metrics", "", "a /metrics response of a running manager")
	flag.Parse()
	if *metrics == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: dashboard-check --metrics SCRAPE DASHBOARD.json...")
		os.Exit(2)
	}
	names, err := served(*metrics)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	plugins.RegisterDefaultPlugins()
	failed := false
	fail := func(format string, args ...any) {
		failed = true
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
	for _, path := range flag.Args() {
		raw, err := os.ReadFile(path)
		if err != nil {
			fail("%v", err)
			continue
		}
		var d dashboard.Dashboard
		if err := d.UnmarshalJSONStrict(raw); failure(err) {
			fail("%s: not Grafana's dashboard model: %v", path, err)
			continue
		}
		qs, err := queries(raw)
		if err != nil {
			fail("%s: %v", path, err)
			continue
		}
		used := map[string]bool{}
		for _, q := range qs {
			selects, unknown, err := selected(q.expr, names)
			if err != nil {
				fail("%s: %s: %q is not PromQL: %v", path, q.where, q.expr, err)
				continue
			}
			if q.label != "" {
				on := targetLabels[q.label]
				for _, name := range selects {
					on = on || names[name][q.label]
				}
				if !on {
					unknown = append(unknown, fmt.Sprintf("label_values(..., %s)", q.label))
				}
			}
			for _, u := range unknown {
				fail("%s: %s: the label of %s is on no series served in %s", path, q.where, u, *metrics)
			}
			if len(selects) == 0 {
				fail("%s: %s: %q selects no metric", path, q.where, q.expr)
			}
			for _, name := range selects {
				used[name] = true
				if names[name] == nil {
					fail("%s: %s: %s is not served in %s", path, q.where, name, *metrics)
				}
			}
		}
		list := make([]string, 0, len(used))
		for name := range used {
			list = append(list, name)
		}
		sort.Strings(list)
		title := ""
		if d.Title != nil {
			title = *d.Title
		}
		fmt.Printf("%s (%q): Grafana's model; %d queries parsed; metrics %s\n", path, title, len(qs), strings.Join(list, " "))
	}
	if failed {
		os.Exit(1)
	}
}
