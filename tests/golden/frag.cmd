frag
frag --top 3 --per-flex
