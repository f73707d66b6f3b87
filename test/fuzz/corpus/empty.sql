-- only a comment
   
