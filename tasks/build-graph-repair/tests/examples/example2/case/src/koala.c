// koala
int koala = 859;
