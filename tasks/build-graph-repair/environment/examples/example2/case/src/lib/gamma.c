// lib/gamma
int lib_gamma = 964;
