#define CEDAR 66
