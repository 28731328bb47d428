"""The rules engine: bilingual, offline understanding of shopper messages.

`engine.RulesEngine` implements the Engine protocol on top of:
`lexicon` (+ `data/*.yml`: slugs with Chinese and English forms, brands, product nouns),
`negation` (polarity and its scope), `budget` and `numbers`, `sizes`, `open_objects`
(English dislikes outside the lexicon), `cues` (scope, intent, questions, decisions),
`planner` (message → Reading), `curator` (turn → CuratorOutput), `reply`.
"""
