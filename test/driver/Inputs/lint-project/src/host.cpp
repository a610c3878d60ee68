int run_app(int n);
int main() { return run_app(1024); }
