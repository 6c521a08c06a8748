package server

// editorRoutes are the routes of the scenario editor (issue 35).
func (s *Server) editorRoutes() []route { return nil }
