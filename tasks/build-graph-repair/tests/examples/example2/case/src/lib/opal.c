// lib/opal
int lib_opal = 947;
