map
map --width 32 --rows 4 g4
