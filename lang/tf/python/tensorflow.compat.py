# tensorflow.compat: v1 and v2 views of the API.
