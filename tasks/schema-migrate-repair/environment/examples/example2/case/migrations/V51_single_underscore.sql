CREATE TABLE never_single (x);
