COPY t FROM stdin;
