// koala
int koala = 218;
