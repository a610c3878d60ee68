# A stand-in for an installed PyCUDA: the reader locates the package (it
# never imports it) and takes its headers from cuda/, as SourceModule does.
raise ImportError("the test's stand-in for PyCUDA is never imported")
