# Dtypes the package's modules share.
import numpy

DTYPE = numpy.float64
INDEX = 'int32'
