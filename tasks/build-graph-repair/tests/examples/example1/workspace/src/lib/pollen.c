// lib/pollen
int lib_pollen = 539;
