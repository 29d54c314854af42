// lib/jasper
int lib_jasper = 972;
