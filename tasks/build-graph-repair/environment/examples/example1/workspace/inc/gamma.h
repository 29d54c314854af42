#define GAMMA 82
