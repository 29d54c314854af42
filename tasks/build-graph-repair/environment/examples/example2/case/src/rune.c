// rune
int rune = 381;
