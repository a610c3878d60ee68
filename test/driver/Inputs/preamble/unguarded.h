struct Pair { int first, second; };
