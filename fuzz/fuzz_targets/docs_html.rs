//! A description (a doc comment, or any text the API reference renders inline) as the
//! HTML reference renders it. Besides no panic: the output holds no element the renderer
//! does not write itself (`<p>`, `<code>`, `<a href>`), every `href` is http(s), relative
//! or in-page, and no attribute is left open.

#![no_main]

use libfuzzer_sys::fuzz_target;

/// Why `html` is not markup the reference would write, if it is not.
fn stray(html: &str) -> Option<String> {
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        let end = rest.find('>')?;
        let tag = &rest[..=end];
        let allowed = matches!(tag, "<p>" | "</p>" | "<code>" | "</code>" | "</a>")
            || tag.strip_prefix("<a href=\"").and_then(|t| t.strip_suffix("\">")).is_some_and(|href| {
                !href.contains('"') && !href.contains('<') && linkable(href)
            });
        if !allowed {
            return Some(format!("`{tag}`"));
        }
        rest = &rest[end + 1..];
    }
    None
}

/// An `href` value (HTML-escaped) whose scheme, as a browser reads it, is http(s), or none.
fn linkable(href: &str) -> bool {
    let decoded = href.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">");
    let decoded = decoded.replace("&amp;", "&");
    let url: String = decoded
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    match url.find([':', '/', '?', '#']) {
        Some(at) if url[at..].starts_with(':') => {
            let scheme = url[..at].to_ascii_lowercase();
            scheme == "http" || scheme == "https"
        }
        _ => true,
    }
}

fuzz_target!(|text: &str| {
    let (inline, paragraphs) = kubegen_cli::fuzzing::description_html(text);
    for html in [&inline, &paragraphs] {
        assert!(!html.to_ascii_lowercase().contains("<script"), "a <script> in {html:?} from {text:?}");
        if let Some(why) = stray(html) {
            panic!("{why} in {html:?} from {text:?}");
        }
    }
});
