#define BIRCH 23
