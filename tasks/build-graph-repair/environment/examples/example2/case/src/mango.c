// mango
int mango = 647;
// edited
