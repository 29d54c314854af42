CREATE TABLE never_lower (x);
