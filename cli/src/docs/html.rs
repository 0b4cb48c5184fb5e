//! The API reference as a static site: the pages the Markdown reference has, from the same
//! views (`<group>/<version>.html`, `index.html`), each one file with its style and script
//! inline, so it reads from disk (`file://`) with nothing fetched. Every page carries the
//! whole navigation tree (groups, versions, kinds, types), a search box that narrows it and
//! the page to the kinds, types and fields that match, an anchor on every field, and a
//! version switch on each kind of several versions.

use anyhow::Result;
use askama::Template;

use super::{GroupVersionView, dash};
use crate::output;
use crate::settings::DocsLink;

const STYLE: &str = include_str!("../../templates/docs/site.css");
const SCRIPT: &str = include_str!("../../templates/docs/site.js");

pub(crate) struct Site<'a> {
    pub header: &'a str,
    pub title: &'a str,
    pub links: &'a [DocsLink],
    pub pages: &'a [GroupVersionView],
}

/// A group in the navigation tree.
struct NavGroup {
    name: String,
    versions: Vec<NavVersion>,
}

/// A group/version's page in the navigation tree, with its kinds and types (name, anchor).
struct NavVersion {
    name: String,
    /// The page, relative to the page the tree is on.
    href: String,
    current: bool,
    kinds: Vec<(String, String)>,
    types: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "docs/group_version.html")]
struct PageHtml<'a> {
    header: &'a str,
    title: &'a str,
    style: &'a str,
    script: &'a str,
    nav: Vec<NavGroup>,
    page: &'a GroupVersionView,
    /// The other versions of the page's group that have a page, newest first.
    siblings: Vec<&'a str>,
}

#[derive(Template)]
#[template(path = "docs/index.html")]
struct IndexHtml<'a> {
    header: &'a str,
    title: &'a str,
    style: &'a str,
    script: &'a str,
    nav: Vec<NavGroup>,
    links: &'a [DocsLink],
    pages: &'a [GroupVersionView],
}

impl Site<'_> {
    /// Each page's path under the output directory, and its text.
    pub fn render(&self) -> Result<Vec<(String, String)>> {
        let mut out = Vec::new();
        for page in self.pages {
            let mut siblings: Vec<&str> =
                self.pages.iter().filter(|p| p.group == page.group).map(|p| p.version.as_str()).collect();
            siblings.sort_by_key(|v| std::cmp::Reverse(super::priority(v)));
            let html = PageHtml {
                header: self.header,
                title: self.title,
                style: STYLE,
                script: SCRIPT,
                nav: self.nav(Some(page)),
                page,
                siblings: if siblings.len() > 1 { siblings } else { Vec::new() },
            };
            out.push((
                format!("{}/{}.html", page.group, page.version),
                output::render(&html, "the API reference's HTML page")?,
            ));
        }
        let index = IndexHtml {
            header: self.header,
            title: self.title,
            style: STYLE,
            script: SCRIPT,
            nav: self.nav(None),
            links: self.links,
            pages: self.pages,
        };
        out.push(("index.html".into(), output::render(&index, "the API reference's HTML index")?));
        Ok(out)
    }

    /// The navigation tree as seen from `from` (the index when none).
    fn nav(&self, from: Option<&GroupVersionView>) -> Vec<NavGroup> {
        let mut groups: Vec<NavGroup> = Vec::new();
        for page in self.pages {
            let current = from.is_some_and(|f| f.group == page.group && f.version == page.version);
            let href = match (current, from) {
                (true, _) => String::new(),
                (false, Some(_)) => format!("../{}/{}.html", page.group, page.version),
                (false, None) => format!("{}/{}.html", page.group, page.version),
            };
            let version = NavVersion {
                name: page.version.clone(),
                href,
                current,
                kinds: page.kinds.iter().map(|k| (k.name.clone(), k.anchor.clone())).collect(),
                types: page.types.iter().map(|t| (t.name.clone(), t.anchor.clone())).collect(),
            };
            match groups.last_mut().filter(|g| g.name == page.group) {
                Some(group) => group.versions.push(version),
                None => groups.push(NavGroup { name: page.group.clone(), versions: vec![version] }),
            }
        }
        for group in &mut groups {
            group.versions.sort_by_key(|v| std::cmp::Reverse(super::priority(&v.name)));
        }
        groups
    }
}

impl NavGroup {
    fn open(&self) -> bool {
        self.versions.iter().any(|v| v.current)
    }
}

/// The reference's Markdown subset as HTML: code spans, links, `\|` (a pipe escaped for a
/// table cell); everything else is text, escaped.
pub(crate) fn inline(md: &str) -> String {
    let mut out = String::new();
    let mut rest = md;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            let ticks = rest.len() - rest.trim_start_matches('`').len();
            let fence = &rest[..ticks];
            if let Some(end) = rest[ticks..].find(fence) {
                let code = rest[ticks..ticks + end].trim();
                out.push_str(&format!("<code>{}</code>", escape(&code.replace("\\|", "|"))));
                rest = &rest[2 * ticks + end..];
                continue;
            }
        }
        if c == '['
            && let Some(close) = rest.find(']')
            && rest[close + 1..].starts_with('(')
            && let Some(end) = rest[close + 2..].find(')')
            && !rest[1..close].contains('[')
        {
            let (text, href) = (&rest[1..close], &rest[close + 2..close + 2 + end]);
            out.push_str(&format!("<a href=\"{}\">{}</a>", escape(href), inline(text)));
            rest = &rest[close + 3 + end..];
            continue;
        }
        if rest.starts_with("\\|") {
            out.push('|');
            rest = &rest[2..];
            continue;
        }
        out.push_str(&escape(&c.to_string()));
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A description's paragraphs (split at blank lines), each line's text inline.
pub(crate) fn paragraphs(text: &str) -> String {
    text.split("\n\n")
        .map(|p| p.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", inline(&p)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What a search matches an element by: its words, lower case.
fn search_text(words: &str) -> String {
    words.to_lowercase()
}

/// The index's line for a kind, after its name.
fn summary(text: &str) -> String {
    inline(&dash(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markdown_subset_becomes_html() {
        assert_eq!(inline("[][Cage](#type-cage)"), "[]<a href=\"#type-cage\">Cage</a>");
        assert_eq!(inline("map[string]string"), "map[string]string");
        assert_eq!(inline("Matches `^a\\|b$`. a < b"), "Matches <code>^a|b$</code>. a &lt; b");
        assert_eq!(inline("`` a`b ``"), "<code>a`b</code>");
        assert_eq!(inline("[x](https://e.com/?a=1&b=2)"), "<a href=\"https://e.com/?a=1&amp;b=2\">x</a>");
        assert_eq!(paragraphs("One\ntwo.\n\nThree."), "<p>One two.</p>\n<p>Three.</p>");
    }
}
