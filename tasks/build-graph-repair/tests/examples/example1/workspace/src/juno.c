// juno
int juno = 666;
