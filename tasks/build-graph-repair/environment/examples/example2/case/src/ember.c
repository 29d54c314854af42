// ember
int ember = 889;
