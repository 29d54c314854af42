// cedar
int cedar = 305;
