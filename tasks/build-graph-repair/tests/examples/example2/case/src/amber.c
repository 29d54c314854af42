// amber
int amber = 989;
