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
/// table cell); everything else is text, escaped. The output's only elements are `<code>`
/// and `<a href>`, so a description's raw HTML is shown as the text it is; a link becomes
/// one only when [`linkable`] says its target is http(s), relative or in-page, else its
/// Markdown shows as text (a doc comment's `[x](javascript:..)` never runs in a reader's
/// browser).
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
            let source = &rest[..close + 3 + end];
            if linkable(href) {
                out.push_str(&format!("<a href=\"{}\">{}</a>", escape(href), inline(text)));
            } else {
                out.push_str(&escape(source));
            }
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

/// Whether a link's target may become an `href`: an in-page anchor, a relative reference or
/// an http(s) URL. The target is read as a browser's URL parser reads it — leading spaces and
/// control characters dropped, tabs and newlines removed anywhere — and, erring on the side
/// of text, anything but an anchor with a `:` before its first `/` or `?` counts as having a
/// scheme, so `JavaScript:`, `java\tscript:`, `java&#x09;script:`, `data:`, `vbscript:` and
/// every scheme not named here stay text. (An entity is no character here anyway: the `href`
/// escapes its `&`, so a browser reads `&#x09;` as the five characters written.)
fn linkable(href: &str) -> bool {
    let url: String =
        href.trim_start_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    if url.starts_with('#') {
        return true;
    }
    match url.find([':', '/', '?']) {
        Some(at) if url[at..].starts_with(':') => {
            let scheme = &url[..at];
            scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
        }
        _ => true,
    }
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

    /// Issue 28: found by a new user's trial — a doc comment's `[docs](javascript:alert(1))`
    /// was a live `javascript:` link in the published HTML.
    #[test]
    fn only_http_relative_and_in_page_links_become_links() {
        for (md, html) in [
            ("[a](https://e.com/x)", "<a href=\"https://e.com/x\">a</a>"),
            ("[a](HTTP://e.com)", "<a href=\"HTTP://e.com\">a</a>"),
            ("[a](//e.com/x)", "<a href=\"//e.com/x\">a</a>"),
            ("[a](../b/v1.html#x)", "<a href=\"../b/v1.html#x\">a</a>"),
            ("[a](v1.html)", "<a href=\"v1.html\">a</a>"),
            ("[a](#type-cage)", "<a href=\"#type-cage\">a</a>"),
            ("[a](?q=a:b)", "<a href=\"?q=a:b\">a</a>"),
            ("[a](./x:y)", "<a href=\"./x:y\">a</a>"),
            ("[a](#x:y)", "<a href=\"#x:y\">a</a>"),
            // No colon: a relative path (the browser does not decode the escaped entity).
            ("[d](java&#x3A;script)", "<a href=\"java&amp;#x3A;script\">d</a>"),
        ] {
            assert_eq!(inline(md), html, "{md}");
        }
        for (md, text) in [
            ("[docs](javascript:alert(1))", "[docs](javascript:alert(1))"),
            ("[docs](JAVASCRIPT:alert(1))", "[docs](JAVASCRIPT:alert(1))"),
            (" [d]( javascript:x)", " [d]( javascript:x)"),
            ("[d](\u{1}javascript:x)", "[d](\u{1}javascript:x)"),
            ("[d](java\tscript:x)", "[d](java\tscript:x)"),
            ("[d](java&#x09;script:alert(1))", "[d](java&amp;#x09;script:alert(1))"),
            ("[d](v1.html#x:y)", "[d](v1.html#x:y)"),
            ("[d](data:text/html;base64,PHNjcmlwdD4=)", "[d](data:text/html;base64,PHNjcmlwdD4=)"),
            ("[d](vbscript:msgbox)", "[d](vbscript:msgbox)"),
            ("[d](file:///etc/passwd)", "[d](file:///etc/passwd)"),
            ("[`c`](mailto:a@b)", "[`c`](mailto:a@b)"),
        ] {
            assert_eq!(inline(md), text, "{md}");
            assert!(!inline(md).contains("<a"), "{md}");
        }
    }

    /// Issue 28: found by a new user's trial — a description's HTML is text, and an `href`
    /// cannot be left by a quote.
    #[test]
    fn a_description_cannot_write_markup() {
        assert_eq!(inline("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
        assert_eq!(
            paragraphs("x <img src=x onerror=alert(1)>\n\ny"),
            "<p>x &lt;img src=x onerror=alert(1)&gt;</p>\n<p>y</p>"
        );
        assert_eq!(
            inline("[a](https://e.com/\"onmouseover=\"alert(1))"),
            "<a href=\"https://e.com/&quot;onmouseover=&quot;alert(1\">a</a>)"
        );
        assert_eq!(inline("[a'](#x'y)"), "<a href=\"#x&#39;y\">a&#39;</a>");
        assert_eq!(inline("[<b>](#x)"), "<a href=\"#x\">&lt;b&gt;</a>");
        assert_eq!(inline("`<script>`"), "<code>&lt;script&gt;</code>");
    }
}
