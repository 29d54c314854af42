// dune
int dune = 47;
