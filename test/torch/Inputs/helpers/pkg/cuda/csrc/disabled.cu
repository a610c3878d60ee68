#error "build.py leaves this file out of its sources"
