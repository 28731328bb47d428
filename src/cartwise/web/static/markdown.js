// Reply text as Markdown (tables, lists, bold): marked turns it into HTML, DOMPurify keeps only
// the tags a reply needs, and links stay http(s) and open in a new tab. Both libraries are
// vendored from npm (vendor/VERSIONS); nothing is fetched at run time.
import { marked } from "./vendor/marked.esm.js";
import DOMPurify from "./vendor/purify.es.js";

const ALLOWED_TAGS = [
  "p", "br", "strong", "em", "del", "code", "pre", "blockquote", "hr", "ul", "ol", "li",
  "table", "thead", "tbody", "tr", "th", "td", "a", "h3", "h4",
];
const ALLOWED_ATTR = ["href", "align", "start"];

/** Replace `target`'s children with `text` rendered as sanitised Markdown. */
export function renderMarkdown(target, text) {
  const html = marked.parse(text, { gfm: true, breaks: true, async: false });
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
