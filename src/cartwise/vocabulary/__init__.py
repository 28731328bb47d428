"""Vocabulary every layer shares: how an English noun becomes singular (`nouns.singular`) and
how any name becomes an ASCII slug (`slugs.slugify`).

Word lists live here as data (`data/`), each loaded once on first use; importing this
package loads nothing.
"""
