// Reply text as Markdown (tables, lists, bold): marked turns it into HTML, with any raw HTML in
// the text escaped (a reply has none to keep, and parsing it — even in DOMPurify's inert
// document — trips the page's own CSP); DOMPurify then keeps only the tags a reply needs, and
// links stay http(s) and open in a new tab. Both libraries are vendored from npm
// (vendor/VERSIONS); nothing is fetched at run time.
import { Marked } from "./vendor/marked.esm.js";
import DOMPurify from "./vendor/purify.es.js";

const ALLOWED_TAGS = [
  "p", "br", "strong", "em", "del", "code", "pre", "blockquote", "hr", "ul", "ol", "li",
  "table", "thead", "tbody", "tr", "th", "td", "a", "h3", "h4",
];
const ALLOWED_ATTR = ["href", "align", "start"];

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (raw) => raw.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: { html: ({ text }) => escapeHtml(text) },
});

/** Replace `target`'s children with `text` rendered as sanitised Markdown. */
export function renderMarkdown(target, text) {
  const html = markdown.parse(text);
  const fragment = DOMPurify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^https?:\/\//i,
    RETURN_DOM_FRAGMENT: true,
  });
  for (const link of fragment.querySelectorAll("a")) {
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  }
  target.replaceChildren(fragment);
}
